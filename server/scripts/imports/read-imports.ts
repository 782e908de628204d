import { globSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';

/** One file importing another, both as paths from the repository's root with `/` between folders. */
export interface FileImport {
  readonly from: string;
  readonly to: string;
}

/** The compiler options the server is built with, so an import resolves here as it does for tsc. */
function serverCompilerOptions(repo: string): ts.CompilerOptions {
  const file = join(repo, 'server/tsconfig.json');
  const read = ts.readConfigFile(file, ts.sys.readFile);
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  return ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(file)).options;
}

const fromRepo = (repo: string, file: string) => relative(repo, file).split(sep).join('/');

/**
 * Every import between the server's own TypeScript files (server/src, and the core/ files they use),
 * read with TypeScript's scanner and resolved by its resolver: `.js` written for a `.ts` file, the
 * `#core/*` alias, `import type`, `export … from` and `import()` alike. Packages and data files
 * (package.json, the locales' JSON) are no part of the layers and are left out. An import of the
 * project that does not resolve is an error, since the rules could not see where it goes.
 */
export function readServerImports(repo: string): FileImport[] {
  const options = serverCompilerOptions(repo);
  const cache = ts.createModuleResolutionCache(repo, (name) => name, options);
  const imports: FileImport[] = [];
  for (const from of globSync('server/src/**/*.ts', { cwd: repo })) {
    if (from.endsWith('.test.ts')) continue;
    const fromFile = join(repo, from);
    const { importedFiles } = ts.preProcessFile(readFileSync(fromFile, 'utf8'), true, true);
    for (const { fileName: specifier } of importedFiles) {
      const resolved = ts.resolveModuleName(specifier, fromFile, options, ts.sys, cache).resolvedModule;
      const ours = specifier.startsWith('.') || specifier.startsWith('#');
      if (!resolved) {
        if (ours) throw new Error(`${fromRepo(repo, fromFile)} imports '${specifier}', which does not resolve to a file`);
        continue;
      }
      if (resolved.isExternalLibraryImport || !/\.tsx?$/.test(resolved.resolvedFileName)) continue;
      imports.push({ from: fromRepo(repo, fromFile), to: fromRepo(repo, resolved.resolvedFileName) });
    }
  }
  return imports;
}
