// Runs a wasm32-wasi program under Node's WASI (make cross-test ARCH=wasm32):
//   node --no-warnings scripts/check/wasi-run.mjs PROGRAM.wasm [ARGS...]
// The current folder is the program's root ("/"), so relative paths read as they do natively;
// its exit status is the program's.
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';
import { argv, env, exit, cwd } from 'node:process';

const wasi = new WASI({ version: 'preview1', args: argv.slice(2), env, preopens: { '/': cwd() },
                        returnOnExit: true });
const module = await WebAssembly.compile(await readFile(argv[2]));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
exit(wasi.start(instance));
