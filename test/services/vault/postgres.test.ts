import { expect } from "chai";
import { Client } from "pg";
import { startPostgresServer, type PostgresServer } from "../../helpers/postgres-server";
import { describeVaultRules } from "./rules";

// The real-server path: PostgreSQL started from initdb for this file; a fresh database per vault.
describeVaultRules("a PostgreSQL server", async () => {
  const server: PostgresServer = await startPostgresServer();
  let count = 0;
  return {
    fresh: async () => {
      const name = `vault_${++count}`;
      const admin = new Client({ connectionString: server.url });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      return { databaseUrl: server.url.replace(/\/postgres$/, `/${name}`) };
    },
    close: async () => {
      await server.stop();
      let alive = true;
      try {
        process.kill(server.pid, 0);
      } catch {
        alive = false;
      }
      expect(alive, `postgres pid ${server.pid} still running`).to.equal(false);
    },
  };
});
