const { PGlite } = require('@electric-sql/pglite');
(async () => {
  let t = Date.now();
  const a = await PGlite.create(); console.log('cold', Date.now() - t); t = Date.now();
  const b = await PGlite.create(); console.log('warm', Date.now() - t); t = Date.now();
  await b.exec('create table x(a int); insert into x values (1)');
  const dump = await b.dumpDataDir('none'); console.log('dump', Date.now() - t, dump.size); t = Date.now();
  const c = await PGlite.create({ loadDataDir: dump }); console.log('load', Date.now() - t, (await c.query('select * from x')).rows); t = Date.now();
  const d = await PGlite.create({ loadDataDir: dump }); console.log('load2', Date.now() - t);
})();
