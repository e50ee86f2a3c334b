// Two or more workers where Jest's default would give one (it keeps a core back: one worker on CI's 2 cores). The
// server's test files spend most of their time waiting on child processes, sockets and PGlite, so on 2 cores two
// workers keep both busy: the PGlite pass went from 1,039 s to 584 s and the PostgreSQL pass from about 513 s to
// 355 s (2026-11-28). With the packages' tests side by side, `.ci/run` went from 27-40 minutes to 20-22 (still not under its
// 20: docs/dependencies.md says where the rest goes). Every file has its own database (a PGlite or a
// PostgreSQL schema) and its own LISTEN channels (named after the schema), so files never see each other's data.
const os = require('node:os');

module.exports = { ...require('../../jest.config.base.js'), maxWorkers: Math.max(2, os.availableParallelism() - 1) };
