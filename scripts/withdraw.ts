/**
 * Unwraps: withdraws a native asset from its wrapper.
 *
 *   npx hardhat run scripts/withdraw.ts                              # in-process network
 *   AMOUNT=2500 FROM=1 npx hardhat run scripts/withdraw.ts --network local
 */
import { unwrapAction, wrapAction } from "../src/hardhat/actions";
import { actionContext, flowSettings, isInProcessNetwork, runFlow, wrapperForFlow } from "./flow-context";

runFlow(async () => {
  const settings = flowSettings();
  const wrapper = await wrapperForFlow(settings.key);
  const ctx = actionContext();
  if (isInProcessNetwork()) {
    // Nothing survives between runs of the in-process network: wrap first so there is something to withdraw.
    ctx.print(`The in-process network starts empty: wrapping ${settings.amount} first.`);
    await wrapAction(ctx, { wrapper: wrapper.address, amount: settings.amount, from: settings.from });
  }
  await unwrapAction(ctx, { wrapper: wrapper.address, amount: settings.amount, from: settings.from });
});
