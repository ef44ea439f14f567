import fc from "fast-check";

/** JSON values whose texts range from a few bytes to tens of kilobytes (a long string now and then), for answers written in parts. */
export const jsonValue = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.string({ minLength: 20_000, maxLength: 70_000 }));
