import { addDays } from "../../dates.js";
import type { SandboxData } from "../../seed/index.js";

export interface WebhookRecord {
  id: string;
  companyId: string;
  title: string;
  description: string | null;
  url: string;
  secret: string | null;
  isActive: boolean;
  clientId: string | null;
  clientSecret: string | null;
  clientUrl: string | null;
  subscribedEvents: string[] | null;
  createdAt: string;
  updatedAt: string;
}

// Beside SandboxData, one list per seeded data set, so the core types stay as they are.
const webhooks = new WeakMap<SandboxData, WebhookRecord[]>();

export function webhooksOf(data: SandboxData): WebhookRecord[] {
  return webhooks.get(data) ?? [];
}

/** Three webhooks: two of Nordlys (one through OAuth), one of Harbor; secrets from `rand`. */
export function seedWebhooks(data: SandboxData, rand: () => number): void {
  const secret = () =>
    `whsec_${Array.from({ length: 24 }, () => Math.floor(rand() * 36).toString(36)).join("")}`;
  const at = (daysAgo: number) => `${addDays(data.today, -daysAgo)}T09:00:00.000000Z`;
  webhooks.set(data, [
    {
      id: "whk_001",
      companyId: "cmp_nordlys",
      title: "Hires to HR system",
      description: "Keeps the HR system's employee list in step with hires.",
      url: "https://hr.nordlys.example/hooks/workforce",
      secret: secret(),
      isActive: true,
      clientId: null,
      clientSecret: null,
      clientUrl: null,
      subscribedEvents: ["HIRE_ENDED", "HIRE_TERMINATED", "CONTRACT_ACCEPTED"],
      createdAt: at(200),
      updatedAt: at(30),
    },
    {
      id: "whk_002",
      companyId: "cmp_nordlys",
      title: "Invoices to finance",
      description: null,
      url: "https://finance.nordlys.example/inbox/workforce",
      secret: secret(),
      isActive: false,
      clientId: "nordlys-finance",
      clientSecret: secret(),
      clientUrl: "https://finance.nordlys.example/oauth/token",
      subscribedEvents: ["INVOICE_CREATED"],
      createdAt: at(120),
      updatedAt: at(120),
    },
    {
      id: "whk_003",
      companyId: "cmp_harbor",
      title: "Everything to the data warehouse",
      description: "All events, for reporting.",
      url: "https://dw.harbor.example/events",
      secret: secret(),
      isActive: true,
      clientId: null,
      clientSecret: null,
      clientUrl: null,
      subscribedEvents: null,
      createdAt: at(90),
      updatedAt: at(10),
    },
  ]);
}
