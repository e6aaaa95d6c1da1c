/**
 * The frame of the operator commands (`npm run keys`, `npm run accounts`): `<command> --option …`.
 * An argument error prints its message and the usage and exits 2; any other failure prints the
 * tool's name and the message and exits 1.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

export class CommandLine {
  constructor(
    private readonly tool: string,
    private readonly usage: string,
  ) {}

  fail(msg: string): never {
    process.stderr.write(`${msg}\n${this.usage}\n`);
    process.exit(2);
  }

  /** The command word and its options; an unknown option throws, an unknown command fails. */
  parse<C extends string, O extends Options>(commands: readonly C[], options: O) {
    const [command, ...rest] = process.argv.slice(2);
    const { values } = parseArgs({ args: rest, options, strict: true });
    if (!commands.includes(command as C)) this.fail('unknown or missing command');
    return { command: command as C, values };
  }

  run(main: () => Promise<void>): void {
    main().catch((err) => {
      process.stderr.write(`${this.tool}: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    });
  }
}
