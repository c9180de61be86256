// The page's one client of the server (uno-client, served from clients/js at
// /uno-client/): every live socket of the browser client is one of its sessions or feeds.

import { UnoClient } from "uno-client";

export const client = new UnoClient({ baseUrl: location.origin });
