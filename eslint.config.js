import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;
const features = readdirSync(`${root}/src/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const serverModules = readdirSync(`${root}/server/src/modules`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  // Mutation reports are generated; Stryker's sandboxes are copies of the repository.
  // server/dist is the compiled server (npm run build:server).
  { ignores: ['dist', 'server/dist', 'server/dist.*', 'node_modules', 'data', 'dev-dist', 'reports', '.stryker-tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}', 'sw/**/*.ts'],
    languageOptions: { globals: { ...globals.browser, ...globals.serviceworker } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['server/**/*.ts', 'tests/**/*.ts', '*.config.ts', 'mutation/**/*.{ts,mjs}', 'scripts/**/*.{ts,mjs}'],
    languageOptions: { globals: globals.node },
  },
  {
    // The Node version check runs on whatever Node is installed, before anything else: CommonJS.
    files: ['scripts/**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': ['error', { ignoreRestArgs: true }],
    },
  },
  {
    // The boundaries a newcomer should not have to learn by hand. Both TypeScript projects are given
    // to the resolver so that `#core/*` and relative imports resolve to files; an import the resolver
    // cannot find would slip past the zones below.
    files: ['server/src/**/*.ts', 'src/**/*.{ts,tsx}', 'core/**/*.ts', 'sw/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // import-x reads every imported file to follow cycles, so it needs the TypeScript parser too.
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: [`${root}/tsconfig.json`, `${root}/server/tsconfig.json`],
          // Two separate projects on purpose (browser and Node libraries); nothing to warn about.
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      // A cycle means two modules cannot be understood (or loaded) one without the other.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', {
        basePath: root,
        zones: [
          // core/ is compiled into both the server and the web app, so it may lean on packages only.
          {
            target: './core',
            from: '.',
            except: ['./core', './node_modules'],
            message: 'core/ is shared by the server and the web app and may import only core/ and packages.',
          },
          // Shared web code serves the features and the shell, never the other way round. Tests are
          // left out: a component's test may render it inside the screen that uses it.
          {
            target: ['./src/{lib,components}/**/!(*.test).ts', './src/{lib,components}/**/!(*.test).tsx'],
            from: ['./src/features', './src/app'],
            message: 'src/lib/ and src/components/ are shared: they may not import a feature or the app shell.',
          },
          // A feature is one screen family; what two features share belongs in components/ or lib/.
          ...features.map((feature) => ({
            target: `./src/features/${feature}`,
            from: './src/features',
            except: [`./${feature}`],
            message: 'Features do not import each other: move shared code to src/components/ or src/lib/.',
          })),
          // A module's repository (its SQL) is its own: another module, even for a type, goes through
          // the owning module's service or another of its files (a mapper, a `<module>.records.ts`).
          // One zone per module, because `except` cannot be mixed with a glob `from`.
          ...serverModules.map((module) => ({
            target: `./server/src/modules/${module}`,
            from: `./server/src/modules/!(${module})/**/*.repository.ts`,
            message: `Only server/src/modules/<module>/ imports its own repository: go through that module's service.`,
          })),
          {
            target: ['./server/src/*.ts', './server/src/!(modules)/**/*.ts'],
            from: './server/src/modules/**/*.repository.ts',
            message: 'Only a module imports its own repository: plugins, lib and the app go through its service.',
          },
        ],
      }],
    },
  },
  {
    // Migrations are frozen in time and typed against Kysely<any> on purpose.
    files: ['server/src/db/migrations/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
