// What list_changes and the changes resource show of a hire a webhook event names: fetched once per
// event and kept beside it (src/client/changes-feed.ts).
import { query } from "./define.js";

export const hireForChangeQuery = query(
  "HireForChange",
  /* GraphQL */ `
    query HireForChange($id: ID!) {
      hire(id: $id) {
        id
        number
        status
        worker {
          id
          name
        }
        company {
          id
          name
        }
        latestContract {
          id
          jobName
        }
      }
    }
  `,
);
