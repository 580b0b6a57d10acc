// The company's webhooks as list_webhooks reads them and manage_webhooks changes them. The secret is
// never asked for: the one this server generates is sent once, in createWebhook's input, and kept
// sealed.
import { mutation, query } from "./define.js";

export const webhooksOfCompanyQuery = query(
  "WebhooksOfCompany",
  /* GraphQL */ `
    query WebhooksOfCompany($company: ID!) {
      webhooks(accounts: [$company], first: 100) {
        data {
          id
          title
          url
          isActive
          subscribedEvents
        }
      }
      webhookEvents(first: 100) {
        data {
          id
          webhookId
          event
          status
          updatedAt
        }
      }
    }
  `,
);

export const createWebhookMutation = mutation(
  "CreateWebhook",
  /* GraphQL */ `
    mutation CreateWebhook($input: CreateWebhookInput!) {
      createWebhook(input: $input) {
        id
        title
        url
        isActive
        subscribedEvents
      }
    }
  `,
  "adds",
);

export const deleteWebhookMutation = mutation(
  "DeleteWebhook",
  /* GraphQL */ `
    mutation DeleteWebhook($input: DeleteWebhookInput!) {
      deleteWebhook(input: $input) {
        id
      }
    }
  `,
  "changes",
);

/** One more attempt at a delivery, now: the receiving end may get the same event again. */
export const retryWebhookEventMutation = mutation(
  "RetryWebhookEvent",
  /* GraphQL */ `
    mutation RetryWebhookEvent($input: RetryWebhookEventInput!) {
      retryWebhookEvent(input: $input) {
        id
        status
      }
    }
  `,
  "adds",
);
