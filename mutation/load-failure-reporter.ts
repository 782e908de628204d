import type { RunnerTestCase, RunnerTestFile } from 'vitest';
import type { Reporter, Vitest } from 'vitest/node';

/**
 * Makes a test file that cannot even be loaded count as a failed test in a mutation run.
 *
 * Some mutants break a module while it loads (a regular expression flag removed, a helper that the
 * module calls at start returning nothing), so every test file importing it fails before collecting
 * a single test. Stryker's Vitest runner builds a mutant's result from the tests it collected, finds
 * none that failed, and calls the mutant survived although the suite plainly caught it (reported
 * upstream as stryker-js#6150, still so in 9.6.1). This reporter gives such a file one failed test
 * carrying the load error, so the mutant is killed. Files that loaded are left as they are, and the
 * everyday `npm test` does not use it: only the configs in `mutation/` list it.
 */
export default class LoadFailureReporter implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(): void {
    for (const file of this.vitest?.state.getFiles() ?? []) {
      if (file.result?.state !== 'fail' || file.tasks.length > 0) continue;
      file.tasks.push(loadFailure(file));
    }
  }
}

function loadFailure(file: RunnerTestFile): RunnerTestCase {
  const errors = file.result?.errors ?? [{ name: 'Error', message: `${file.name} failed to load` }];
  // The runner reads only the name, the file, the mode and the result of a test once the run is
  // over; a real test also carries a context that only Vitest can build while running it.
  return {
    type: 'test',
    id: `${file.id}_load`,
    name: 'loads',
    fullName: `${file.name} loads`,
    mode: 'run',
    file,
    suite: file,
    meta: {},
    timeout: 0,
    annotations: [],
    artifacts: [],
    result: { state: 'fail', errors },
  } as unknown as RunnerTestCase;
}
