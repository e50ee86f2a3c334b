export { loadConfig, ConfigError, type Config } from './config';
export { createLogger } from './logger';
export { createRuntime, type Runtime, type RuntimeOptions } from './runtime';
export { createLeaderboardApp, createLeaderboardListener, createLeaderboardReadCache, createFeedbackApp } from './apps';
export { scanDetailSql } from './scans/detail';
export { listen, type RunningServers } from './server';
export { startBackground, type Background, type BackgroundOptions } from './jobs/background';
export { JobQueue } from './jobs/queue';
