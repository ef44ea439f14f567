/** The LRU in front of a chain kept in a store lives with the storage, for every chain's use. */
export { Lru } from "../../storage/lru";
