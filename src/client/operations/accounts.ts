// Who is signed in and which accounts the token may act for: list_accounts.
import type {
  ListAccountsQuery,
  ListAccountsQueryVariables,
} from "../operation-types.generated.js";
import { query } from "./define.js";

export const listAccountsQuery = query<ListAccountsQuery, ListAccountsQueryVariables>(
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
