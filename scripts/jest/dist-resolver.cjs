// Jest resolver of the end-to-end suites: every module of the application's sources resolves to
// its tsc output in dist/, the files `npm start` runs (the suites passed on code that
// @swc/jest compiled while the built server answered 500). Specs and test/support stay
// TypeScript (@swc/jest) and keep importing `../../src/...` as usual; whatever they import from
// a package's src/ (relative, absolute or dynamic `import()`, and `@scn/proto`) is loaded from
// dist/, and so is everything that code requires in turn.
'use strict';
const { existsSync } = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
/** Where each package's tsc build puts the output of src/ (see its tsconfig.build.json). */
const OUTPUT_OF_SRC = {
  proto: 'dist',
  'control-plane': 'dist',
  'node-agent': path.join('dist', 'src'),
};
const TEST_FILE = /\.(spec|db-spec|e2e-spec)\.ts$/;

/** The dist/ file built from a package's src/ file, or null for anything else. */
function builtFile(file) {
  for (const [pkg, output] of Object.entries(OUTPUT_OF_SRC)) {
    const src = path.join(ROOT, pkg, 'src') + path.sep;
    if (!file.startsWith(src) || !file.endsWith('.ts') || file.endsWith('.d.ts')) continue;
    if (TEST_FILE.test(file)) return null;
    const built = path.join(ROOT, pkg, output, file.slice(src.length).replace(/\.ts$/, '.js'));
    if (!existsSync(built)) {
      throw new Error(
        `${path.relative(ROOT, file)} has no build output (${path.relative(ROOT, built)}): ` +
          'run `npm run build` first; the end-to-end suites run on dist/',
      );
    }
    return built;
  }
  return null;
}

module.exports = function resolve(request, options) {
  const resolved = options.defaultResolver(request, options);
  return builtFile(resolved) ?? resolved;
};
module.exports.builtFile = builtFile;
