/**
 * Wraps a native asset: nativeAssetCall + deposit in one transaction.
 *
 *   npx hardhat run scripts/deposit.ts                              # in-process network
 *   AMOUNT=2500 FROM=1 npx hardhat run scripts/deposit.ts --network local
 */
import { wrapAction } from "../src/hardhat/actions";
import { actionContext, flowSettings, runFlow, wrapperForFlow } from "./flow-context";

runFlow(async () => {
  const settings = flowSettings();
  const wrapper = await wrapperForFlow(settings.key);
  await wrapAction(actionContext(), { wrapper: wrapper.address, amount: settings.amount, from: settings.from });
});
