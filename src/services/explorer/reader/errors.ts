/** A well-formed request the reader cannot answer as asked (a foreign cursor, too many intervals): the API's 400. */
export class ReaderInputError extends Error {}
