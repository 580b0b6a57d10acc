// What the platform's public API cannot do, in the prompts' words (the tools say the same).
export const API_CANNOT_APPROVE =
  "The platform's public API cannot approve or reject payment requests: a person does that in the platform's web app.";

export const API_CANNOT_EXTEND =
  "The platform's public API cannot change a contract's rate or dates (so no extension): a person does that in the platform's web app. Say so if asked to extend.";
