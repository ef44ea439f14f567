import { pgliteKind } from "./api-helpers";
import { describeExplorerApi } from "./api-rules";

describe("explorer API over PGlite (embedded)", () => describeExplorerApi(async () => pgliteKind()));
