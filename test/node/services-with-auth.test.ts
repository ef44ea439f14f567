/**
 * The services a node hosts, on a node started with --api-auth-required (issue 26 item 9): the
 * node gets its explorer and its vault their tokens itself (auth.newToken over its own HTTP API),
 * so `node --api-auth-required --explorer` starts and follows its chains, and the vault's calls
 * to the node are not refused (they were: the node exited "HTTP 401", the vault answered 502).
 * Each test runs the node as users do, a child process, and stops it by pid.
 */
import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createNodeClient } from "../../src/clients";
import { LOCAL_TEST_KEY } from "../../src/network/constants";
import { type CliNode, startedCliNode } from "../helpers/cli-node";
import { alive } from "../helpers/processes";
import { PRINTED_AUTH_REFUSAL } from "../helpers/refusal";
import { ALIAS, aliasSpend, hex, OUTPUT_OWNERS, OWNERS, signBytes, unsignedBytes } from "../services/vault/helpers";
import { waitFor } from "../helpers/wait-for";

const PASSWORD = "raccoon-velvet-42";
const NEW_PASSWORD = "otter-lantern-97";
const CREDENTIALS = { username: "services-with-auth", password: "a-Strong-passw0rd-for-tests" };


describe("nativekit node --api-auth-required with its services", function () {
  this.timeout(240_000);
  let dir: string;
  let node: CliNode | undefined;

  /** A node requiring auth (its password in a file), with `args`. */
  async function startAuthNode(args: readonly string[]): Promise<CliNode> {
    const passwordFile = path.join(dir, "password");
    fs.writeFileSync(passwordFile, `${PASSWORD}\n`);
    node = await startedCliNode(["--api-auth-required", "--api-auth-password-file", passwordFile, "--silent", ...args]);
    return node;
  }

  /** A token of the node's auth API opening every path, as a user of the node would make one. */
  const userToken = (url: string) => createNodeClient({ url }).auth.newToken(PASSWORD, ["*"]);

  /** Sends some of the native asset on the exchange chain with `token`; answers the transaction's ID once accepted. */
  async function sendOnExchangeChain(url: string, token: string): Promise<string> {
    const client = createNodeClient({ url, authToken: token });
    await client.keystore.createUser(CREDENTIALS);
    await client.xvm.importKey({ credentials: CREDENTIALS, privateKey: LOCAL_TEST_KEY });
    const to = await client.xvm.createAddress({ credentials: CREDENTIALS });
    const { txID } = await client.xvm.send({ credentials: CREDENTIALS, to, amount: 1_000_000n, assetID: "AVAX" });
    await client.xvm.waitForTxStatus(txID);
    return txID;
  }

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "services-with-auth-"));
  });

  afterEach(async () => {
    if (node !== undefined) {
      const { pid } = node;
      expect(await node.stop()).to.equal(0);
      expect(alive(pid)).to.equal(false);
      node = undefined;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("node --api-auth-required --explorer starts, and its explorer follows the chains", async () => {
    const { url, output } = await startAuthNode(["--explorer"]);
    await waitFor(() => /explorer listening on /.exec(output()), `the explorer line:\n${output()}`);
    const token = await userToken(url);
    const txID = await sendOnExchangeChain(url, token);

    const headers = { authorization: `Bearer ${token}` };
    const shown = await waitFor(async () => {
      const response = await fetch(`${url}/explorer/v2/transactions/${txID}`, { headers });
      return response.status === 200 ? ((await response.json()) as { id: string }) : null;
    }, `the explorer to show ${txID}`);
    expect(shown.id).to.equal(txID);
    const status = (await (await fetch(`${url}/explorer/status`, { headers })).json()) as { indexes: { index: string; lastError: string | null }[] };
    expect(status.indexes.map((i) => [i.index, i.lastError])).to.deep.equal([
      ["X-tx", null],
      ["P-block", null],
      ["C-block", null],
    ]);
    expect(output()).not.to.match(PRINTED_AUTH_REFUSAL);
  });

  it("after auth.changePassword, the node's explorer gets a new token with the password now in the file, and keeps following", async () => {
    const { url, output } = await startAuthNode(["--explorer"]);
    await waitFor(() => /explorer listening on /.exec(output()), `the explorer line:\n${output()}`);
    // Every token made so far, the explorer's too, is invalid from here on.
    await createNodeClient({ url }).auth.changePassword(PASSWORD, NEW_PASSWORD);
    fs.writeFileSync(path.join(dir, "password"), `${NEW_PASSWORD}\n`);
    const token = await createNodeClient({ url }).auth.newToken(NEW_PASSWORD, ["*"]);
    const txID = await sendOnExchangeChain(url, token);
    await waitFor(async () => ((await fetch(`${url}/explorer/v2/transactions/${txID}`, { headers: { authorization: `Bearer ${token}` } })).status === 200 ? true : null), `the explorer to show ${txID}`);
  });

  it("node --api-auth-required --vault answers vault calls with the alias's owners read from the node, not 502", async () => {
    const genesis = path.join(dir, "genesis.json");
    fs.writeFileSync(genesis, JSON.stringify({ initialMultisigAddresses: [{ alias: ALIAS, addresses: OWNERS.map((o) => o.address), threshold: 2 }] }));
    const { url, output } = await startAuthNode(["--vault", "--genesis-file", genesis]);
    await waitFor(() => /vault listening on /.exec(output()), `the vault line:\n${output()}`);
    const bytes = unsignedBytes(aliasSpend());
    const response = await fetch(`${url}/v1/multisig`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${await userToken(url)}` },
      body: JSON.stringify({ alias: ALIAS, unsignedTx: hex(bytes), signature: signBytes(bytes, OWNERS[0]!.key), outputOwners: OUTPUT_OWNERS }),
    });
    const body = (await response.json()) as { threshold?: number; message?: string };
    expect(response.status, JSON.stringify(body)).to.equal(201);
    expect(body.threshold).to.equal(2);
  });
});
