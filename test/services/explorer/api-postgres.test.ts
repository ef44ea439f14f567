import { postgresKind } from "./api-helpers";
import { describeExplorerApi } from "./api-rules";

describe("explorer API over a PostgreSQL server", () => describeExplorerApi(postgresKind));
