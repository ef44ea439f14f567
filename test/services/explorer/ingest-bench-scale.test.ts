import { expect } from "chai";
import { formatScaleReport, measureScale } from "../../../bench/explorer-scale";

/** The explorer benchmark at scale (`npm run bench -- explorer --containers <n>`), at CI size: 300 containers of the stand-in node. */
describe("explorer bench at scale, at CI size: 300 generated containers from the stand-in node", function () {
  this.timeout(300_000);

  it("ingests a tenth then all of the generated index, times every path at both sizes and checks the plans", async () => {
    const report = await measureScale({ containers: 300, postgres: false, clients: 4, requests: 8, log: () => undefined });
    expect(report.sizes.map((s) => [s.containers, s.ingested])).to.deep.equal([
      [30, 30],
      [300, 270],
    ]);
    for (const size of report.sizes) {
      expect(size.latency.length).to.equal(22); // the /v2 paths and pages of scalePaths
      expect(size.latency.every((l) => l.requests === 8 && l.p95Ms >= l.medianMs)).to.equal(true);
      expect(size.latency.every((l) => l.firstMs !== undefined && l.firstMs > 0)).to.equal(true);
    }
    expect(report.plans.length).to.be.greaterThan(20);
    expect(formatScaleReport(report)).to.match(/^node: stand-in .*\ningest to 30 containers: 30 in .*\ningest to 300 containers: 270 in /);
  });
});
