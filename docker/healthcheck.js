// Container healthcheck: exits 0 when the service in this container answers GET /api/health with 200 (its database
// is reachable), 1 otherwise. The port is the first argument (PORT, then 3000, without one):
// node docker/healthcheck.js [port]
const port = process.argv[2] || process.env.PORT || '3000';
fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2500) }).then(
  (res) => process.exit(res.status === 200 ? 0 : 1),
  () => process.exit(1),
);
