// The talent pool: skill look-up and trusted contacts, for search_talent_pool.

import type { SearchTalentPoolQuery, SkillLookupQuery } from "../operation-types.generated.js";
import { PAGINATOR_INFO_FIELDS } from "../pagination.js";
import type { Operation } from "../types.js";
import { query } from "./define.js";

export type SkillRef = SkillLookupQuery["s0"]["data"][number];

/** Skill names one look-up resolves at most: one aliased `skills` field each. */
export const MAX_SKILL_LOOKUPS = 10;
/** Matches per name: enough that an exact name is among them when it exists. */
const SKILL_MATCHES_PER_NAME = 25;
export const skillAlias = (index: number) => `s${index}`;
export const skillVariable = (index: number) => `q${index}`;

// The document is built for as many names as are given, so its own types are by alias:
/** Keyed by alias (`s0`, `s1`, …); each is the same. */
export type SkillLookupData = Record<string, SkillLookupQuery["s0"]>;
/** `q0`, `q1`, …: the names, matching the aliases (the document's `String` also takes null). */
export type SkillLookupVariables = Record<string, string | null>;

const skillLookups = new Map<number, Operation<SkillLookupData, SkillLookupVariables>>();

/** One request that searches skills for `count` names at once, aliased s0…s(count-1). */
export function skillLookupQuery(count: number): Operation<SkillLookupData, SkillLookupVariables> {
  if (!Number.isInteger(count) || count < 1) {
    throw new RangeError(`skillLookupQuery needs a positive whole count, not ${count}.`);
  }
  let operation = skillLookups.get(count);
  if (!operation) {
    const indexes = Array.from({ length: count }, (_, i) => i);
    const variables = indexes.map((i) => `$${skillVariable(i)}: String`).join(", ");
    const fields = indexes.map(
      (i) => `
      ${skillAlias(i)}: skills(search: $${skillVariable(i)}, first: ${SKILL_MATCHES_PER_NAME}) {
        data {
          id
          name
        }
      }`,
    );
    operation = query(
      "SkillLookup",
      /* GraphQL */ `
    query SkillLookup(${variables}) {${fields.join("")}
    }
  `,
    );
    skillLookups.set(count, operation);
  }
  return operation;
}

/** A talent pool contact with the worker's place and hires, as search_talent_pool shows it. */
export type TalentContact = SearchTalentPoolQuery["trustedContacts"]["data"][number];

/** A worker's hires the answer reads to say whether the contact's company hired them. */
const WORKER_HIRES_READ = 25;

export const searchTalentPoolQuery = query(
  "SearchTalentPool",
  /* GraphQL */ `
    query SearchTalentPool(
      $accounts: [ID!]
      $search: String
      $skills: [ID!]
      $countries: [String!]
      $statuses: [ContactStatus!]
      $hireStatus: HireStatusFilterInput
      $hireHistory: HireHistoryFilterInput
      $first: Int!
      $page: Int
    ) {
      trustedContacts(
        accounts: $accounts
        search: $search
        skills: $skills
        countries: $countries
        statuses: $statuses
        hireStatus: $hireStatus
        hireHistory: $hireHistory
        orderBy: [{ field: WORKER_NAME, order: ASC }]
        first: $first
        page: $page
      ) {
        ${PAGINATOR_INFO_FIELDS}
        data {
          id
          status
          invitedAt
          company {
            id
            name
          }
          skills {
            id
            name
          }
          worker {
            id
            name
            email
            jobTitle
            address {
              city
              country {
                isoCode
                name
              }
            }
            hires(first: ${WORKER_HIRES_READ}) {
              data {
                id
                status
                company {
                  id
                }
              }
            }
          }
        }
      }
    }
  `,
);
