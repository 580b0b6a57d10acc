// Who is signed in and which accounts the token may act for: list_accounts.
import { query } from "./define.js";

export const listAccountsQuery = query(
  "ListAccounts",
  /* GraphQL */ `
    query ListAccounts {
      viewer {
        id
        name
        email
      }
      accounts {
        __typename
        id
        name
        ... on Company {
          market
          currency
        }
        ... on Organisation {
          market
        }
      }
    }
  `,
);
