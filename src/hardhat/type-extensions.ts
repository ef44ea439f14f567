import "hardhat/types/config";
import type { NativekitConfig, NativekitUserConfig } from "./config";

declare module "hardhat/types/config" {
  interface HardhatUserConfig {
    nativekit?: NativekitUserConfig;
  }
  interface HardhatConfig {
    nativekit: NativekitConfig;
  }
}
