// The sample customers: three companies, one organisation over them, and one staffing agency.
import type { CompanyRecord, OrganisationRecord, RecruiterRecord } from "./types.js";

/** Fresh records for each seed (the sandbox changes them). */
export function seedOrganizations(): {
  companies: CompanyRecord[];
  organisations: OrganisationRecord[];
  recruiters: RecruiterRecord[];
} {
  const companies: CompanyRecord[] = [
    {
      __typename: "Company",
      id: "cmp_nordlys",
      name: "Nordlys Energi A/S",
      currency: "DKK",
      market: "DK",
      externalIdentifier: "ERP-NORDLYS",
      avatar: null,
    },
    {
      __typename: "Company",
      id: "cmp_harbor",
      name: "Harbor & Pine Inc.",
      currency: "USD",
      market: "US",
      externalIdentifier: null,
      avatar: null,
    },
    {
      __typename: "Company",
      id: "cmp_castell",
      name: "Castell Retail GmbH",
      currency: "EUR",
      market: "DE",
      externalIdentifier: "CR-0042",
      avatar: null,
    },
  ];
  const organisations: OrganisationRecord[] = [
    {
      __typename: "Organisation",
      id: "org_nordic_group",
      name: "Nordlys Group",
      market: "DK",
      avatar: null,
    },
  ];
  const recruiters: RecruiterRecord[] = [
    {
      __typename: "Recruiter",
      id: "rec_brightpath",
      name: "Brightpath Staffing",
      initials: "BS",
      avatar: null,
    },
  ];
  return { companies, organisations, recruiters };
}
