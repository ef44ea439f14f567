/**
 * The child process of test/engine/persistence-crash.test.ts: opens the chain kept in the LevelDB directory
 * argv[2] and sends transactions (and asset edits) as fast as it can, printing each transaction
 * hash as soon as it is answered, until it is killed.
 */
import { createNativeProvider } from "../../src/engine";
import { durableStore, LevelBackend } from "../../src/storage";

async function main(): Promise<void> {
  const backend = await LevelBackend.open(process.argv[2]!);
  const provider = await createNativeProvider({ store: durableStore(backend).namespace("c/") });
  const [from, to] = (await provider.request({ method: "eth_accounts" })) as string[];
  process.stdout.write("ready\n");
  for (let i = 1; ; i++) {
    const hash = await provider.request({ method: "eth_sendTransaction", params: [{ from, to, value: "0x1" }] });
    process.stdout.write(`${String(hash)}\n`);
    if (i % 5 === 0) {
      await provider.request({ method: "nativekit_setAssetBalance", params: [to, "0x" + "7".padStart(64, "0"), `0x${i.toString(16)}`] });
      process.stdout.write(`asset ${i}\n`);
    }
  }
}

// Run only as a process of its own: mocha loads every file under test/.
if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  });
}
