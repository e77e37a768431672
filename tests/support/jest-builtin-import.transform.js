/**
 * PGlite's CommonJS build loads node built-ins with `import("fs")`, which Jest's sandbox only allows
 * under --experimental-vm-modules. This turns those into plain requires so `npx jest` works as is.
 */
const { builtinModules } = require('node:module');

const BUILTIN = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

module.exports = {
  process(source) {
    // The bundle shadows `require` in places, so the module's own is kept under a name of ours.
    const code = source.replace(/\bimport\(\s*(["'])([^"']+)\1\s*\)/g, (match, _q, name) =>
      BUILTIN.has(name) ? `Promise.resolve().then(() => __builtinRequire(${JSON.stringify(name)}))` : match,
    );
    return { code: `var __builtinRequire = require;${code}` };
  },
  getCacheKey(source, path) {
    return require('node:crypto').createHash('sha1').update('v2').update(path).update(source).digest('hex');
  },
};
