/**
 * Jest's own order, except on a run with no recorded times (a clean checkout, as CI's): Jest then orders files by
 * size, which started the suite's slowest files late and left one worker running them alone at the end. Files
 * known to be slow (from CI's "slowest test files" list, slowest first) start first, so the workers finish together.
 * Once Jest has recorded times (its cache), its slowest-first order stands.
 * Browser tests are not among them on purpose: started together they ran three Chromiums on two cores at once, each
 * twice as slow, and the suite took half as long again; in Jest's order they are spread among the lighter files.
 */
const Sequencer = require('@jest/test-sequencer').default;

const KNOWN_SLOW = [
  /\/tests\/e2e\/hardening\/hostile-requests[^/]*\.test\.ts$/,
  /\/tests\/integration\/knowledge\/needle-search[^/]*\.test\.ts$/,
  /\/tests\/e2e\/process\//,
  /\/tests\/integration\/knowledge\/vector-index\.contract\.test\.ts$/,
  /\/tests\/e2e\/library\/packed-library\.test\.ts$/,
  /rotate-keys[^/]*\.test\.ts$/,
  /readme-blocks[^/]*\.test\.ts$/,
];

const rank = (path) => {
  const i = KNOWN_SLOW.findIndex((pattern) => pattern.test(path));
  return i === -1 ? KNOWN_SLOW.length : i;
};

class SlowFirstSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    if (sorted.some((test) => test.duration != null)) return sorted;
    // Array.prototype.sort is stable: within a rank, Jest's order (largest file first) stays.
    return [...sorted].sort((a, b) => rank(a.path) - rank(b.path));
  }
}

module.exports = SlowFirstSequencer;
