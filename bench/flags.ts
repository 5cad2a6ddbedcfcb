// the benches' one flag reader: `--name value`, else the default. benches are run by hand, so a
// missing value reads as the default rather than an error.
export function flag(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : dflt;
}

export const numberFlag = (name: string, dflt: number): number => Number(flag(name, String(dflt)));
