// EXPLAIN (ANALYZE, BUFFERS) of the product's list statement, generic plan, under RLS, on flotte_bench:
//   node --import tsx --conditions=source bench/explain.ts <list name> <organization uuid> '<query string>'  (REPEAT, VERBOSE)
import pg from 'pg';
import { openPostgres } from '../apps/api/src/db/client.js';
import { declaredLists, explainStatement } from '../apps/api/src/db/list-kit.js';
import '../apps/api/src/app.js';
const [listName, org, qs] = process.argv.slice(2);
const url = 'postgres://postgres@127.0.0.1:5432/flotte_bench';
const h = await openPostgres(url, { migrate: false, max: 1 });
const list = declaredLists().find((l) => l.name === listName)!;
const schema = list.declaration.query;
const query = schema.parse(Object.fromEntries(new URLSearchParams(qs ?? '')));
const { text, params } = explainStatement(h.db as never, list, org!, query as never);
const c = new pg.Client({ connectionString: url }); await c.connect();
await c.query('begin');
await c.query(`select set_config('role','flotte_app',true), set_config('app.org_id',$1,true), set_config('plan_cache_mode','force_generic_plan',true)`, [org]);
await c.query(`prepare s as ${text}`);
const args = params.map((p) => (p === null ? 'null' : Array.isArray(p) ? `'{${p.join(',')}}'` : `'${String(p).replace(/'/g, "''")}'`));
for (let i = 0; i < Number(process.env.REPEAT ?? 2); i++) {
  const r = await c.query(`explain (analyze, buffers${process.env.VERBOSE ? '' : ', costs off'}) execute s${args.length ? `(${args.join(',')})` : ''}`);
  if (i === Number(process.env.REPEAT ?? 2) - 1) console.log(r.rows.map((x) => x['QUERY PLAN']).join('\n'));
}
await c.query('rollback'); await c.end(); await h.close();
