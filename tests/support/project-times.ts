import type { Reporter, TestModule } from 'vitest/node';

interface Span {
  files: number;
  /** Time spent inside the project's files (import, setup and tests), summed over files. */
  busyMs: number;
  first: number;
  last: number;
}

/**
 * Prints, after a run, how long each test project took: the wall-clock span from its first file
 * starting to its last finishing, and the time its files spent working. CI's log then says where
 * the time goes, which is what decides how projects are split and run side by side.
 */
export default class ProjectTimes implements Reporter {
  private readonly spans = new Map<string, Span>();

  onTestModuleStart(module: TestModule): void {
    const name = module.project.name || '(root)';
    const span = this.spans.get(name) ?? { files: 0, busyMs: 0, first: Date.now(), last: Date.now() };
    this.spans.set(name, span);
  }

  onTestModuleEnd(module: TestModule): void {
    const span = this.spans.get(module.project.name || '(root)');
    if (!span) return;
    const d = module.diagnostic();
    span.files += 1;
    span.busyMs += d.setupDuration + d.collectDuration + d.duration;
    span.last = Date.now();
  }

  onTestRunEnd(): void {
    const rows = [...this.spans].sort(([, a], [, b]) => b.last - b.first - (a.last - a.first));
    const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
    console.log('\nTime by project (wall span, time in files, files):');
    for (const [name, span] of rows) console.log(`  ${name.padEnd(24)} ${seconds(span.last - span.first).padStart(7)} ${seconds(span.busyMs).padStart(7)} ${String(span.files).padStart(5)}`);
  }
}
