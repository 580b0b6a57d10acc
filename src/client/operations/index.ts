// Every GraphQL document the server sends lives in this folder, as a named operation, by area of the
// platform (declared with ./define.ts). Each domain's file holds the documents its tools need; the
// tests find every exported operation in the folder (test/helpers/all-operations.ts), and
// test/client/operations.test.ts checks all of them against the real schema.

export * from "./core.js";
