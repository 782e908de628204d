/** Command-line arguments as they would be typed in a shell, for quoting the exact command run. */
export function shellArgs(args: readonly string[]): string {
  return args.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(' ');
}
