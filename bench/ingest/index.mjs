// bench/ingest: one control plane's report throughput against a bare grpc-js echo and one real
// agent's footprint (single.mjs, the default), or with INGEST_REPLICAS=2 two replicas on one
// database, a fleet of simulated agents split between them, and the fleet's failover when one
// replica is killed (replicas.mjs). Each file lists its knobs.
const replicas = Number(process.env.INGEST_REPLICAS ?? 1);
if (replicas !== 1 && replicas !== 2) throw new Error('INGEST_REPLICAS: 1 or 2');
await import(replicas === 2 ? './replicas.mjs' : './single.mjs');
