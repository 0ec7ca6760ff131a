import { z } from 'zod';
import { component } from './answers.js';

/**
 * Request and answer shapes of the hand-written routes, shared by server (validation, OpenAPI) and
 * console (typed calls). Lists answer { items, total, page, page_size }. Errors answer { code, message, details? }.
 */

export const apiError = z.object({
  code: z.string().describe('A stable code from the message catalogue (PARAM_INVALID, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, CONFLICT …)'),
  message: z.string().describe("The refusal in the caller's language (X-Locale or Accept-Language)"),
  details: z.unknown().optional().describe('What the refusal is about, when it says more: the fields ([{ field, message }]), the missing permission ({ permission }), a reason ({ reason })'),
});
export type ApiError = z.infer<typeof apiError>;
// Named in the API document (components.schemas.ApiError): every operation's error answers refer to it.
component(apiError, 'ApiError', { description: 'An error answer: { code, message, details? }' });

export const loginBody = z.strictObject({
  account: z.string().trim().max(64),
  password: z.string().max(128),
  google_code: z.string().trim().regex(/^\d{6}$/).optional(),
});

export const menuNode: z.ZodType<MenuNode> = z.lazy(() =>
  z.object({
    id: z.number(),
    key: z.string(),
    name: z.string(),
    language_variables: z.string(),
    path: z.string(),
    type: z.number(),
    platform: z.number(),
    show_headshot: z.number(),
    hidden: z.boolean(),
    icon: z.string().nullable(),
    sort: z.number(),
    children_number: z.number(),
    children: z.array(menuNode),
  }),
);
// Recursive, so named in the API document (components.schemas.MenuNode), which refers to it for `children`.
component(menuNode, 'MenuNode', { description: 'A node of the menu tree (a page or a button) with its children' });
export interface MenuNode {
  id: number;
  key: string;
  name: string;
  language_variables: string;
  path: string;
  type: number;
  platform: number;
  show_headshot: number;
  hidden: boolean;
  icon: string | null;
  sort: number;
  children_number: number;
  children: MenuNode[];
}

export const userInfo = z.object({
  id: z.number(),
  account: z.string(),
  name: z.string(),
  role_id: z.number(),
  role_name: z.string(),
  is_super: z.boolean(),
  superior_id: z.number().nullable(),
  google_bound: z.number(),
  /** Permission keys (`page` and `page:button`); empty with is_super (everything). */
  permissions: z.array(z.string()),
});
export type UserInfo = z.infer<typeof userInfo>;

export const loginAnswer = z.object({
  token: z.string(),
  user_info: userInfo,
  /** The socket: session id (sent in clear as the key id) and the AES-256-GCM key (base64). */
  session_id: z.string(),
  ws_key: z.string(),
  expires_at: z.string(),
});
export type LoginAnswer = z.infer<typeof loginAnswer>;

export const meAnswer = z.object({
  user_info: userInfo,
  token: z.string(),
  session_id: z.string(),
  ws_key: z.string(),
  menus: z.array(menuNode),
});
export type MeAnswer = z.infer<typeof meAnswer>;

export const changePasswordBody = z.strictObject({
  old_password: z.string().max(128),
  new_password: z.string().max(128),
  confirm_password: z.string().max(128),
});

export const registerBody = z.strictObject({
  account: z.string().trim().max(32),
  password: z.string().max(128),
  confirm_password: z.string().max(128),
  invitation_code: z.string().trim().max(32).optional(),
});

export const googleCodeBody = z.strictObject({ code: z.string().trim().regex(/^\d{6}$/) });

export const siteInfo = z.object({ id: z.number(), title: z.string(), icon: z.string(), logo: z.string(), color: z.string() });
export type SiteInfo = z.infer<typeof siteInfo>;

export const registerConfig = z.object({ allow_registration: z.boolean(), no_registration_tip: z.string() });
export type RegisterConfig = z.infer<typeof registerConfig>;

export const notice = z.object({ id: z.number(), content: z.string(), notify_status: z.number(), create_time: z.string() });
export type Notice = z.infer<typeof notice>;

export const adminRow = z.object({
  id: z.number(),
  account: z.string(),
  name: z.string(),
  phone: z.string(),
  role_id: z.number(),
  role_name: z.string(),
  superior_id: z.number().nullable(),
  superior_account: z.string().nullable(),
  share_ratio: z.string(),
  balance: z.number(),
  invitation_code: z.string().nullable(),
  online_status: z.number(),
  online_update_time: z.string().nullable(),
  member_expiry: z.string().nullable(),
  register_ip: z.string().nullable(),
  register_time: z.string(),
  login_ip: z.string().nullable(),
  login_time: z.string().nullable(),
  disabled: z.number(),
  google_bound: z.number(),
  subordinates: z.number(),
});
export type AdminRow = z.infer<typeof adminRow>;

const shareRatio = z.union([z.number(), z.string()]);
export const adminCreateBody = z.strictObject({
  account: z.string().trim().min(3).max(32),
  name: z.string().trim().max(64).default(''),
  phone: z.string().trim().max(20).default(''),
  password: z.string().max(128).optional(),
  role_id: z.number().int().positive(),
  superior_id: z.number().int().positive().nullable().optional(),
  share_ratio: shareRatio.optional(),
  member_expiry: z.string().datetime({ offset: true }).nullable().optional(),
  invitation_code: z.string().trim().max(32).nullable().optional(),
});
export const adminUpdateBody = z.strictObject({
  name: z.string().trim().max(64).optional(),
  phone: z.string().trim().max(20).optional(),
  role_id: z.number().int().positive().optional(),
  superior_id: z.number().int().positive().nullable().optional(),
  share_ratio: shareRatio.optional(),
  member_expiry: z.string().datetime({ offset: true }).nullable().optional(),
  invitation_code: z.string().trim().max(32).nullable().optional(),
});
export const resetPasswordBody = z.strictObject({ password: z.string().max(128).optional() });
export const disableBody = z.strictObject({ disabled: z.union([z.literal(1), z.literal(2)]) });
export const notifyBody = z.strictObject({
  admin_ids: z.array(z.number().int().positive()).min(1).max(500),
  content: z.string().trim().min(1).max(1000),
});

export const roleRow = z.object({
  id: z.number(),
  name: z.string(),
  remarks: z.string(),
  is_super: z.boolean(),
  serves_superior_branch: z.boolean(),
  admins: z.number(),
  permission_count: z.number(),
  create_time: z.string(),
  update_time: z.string(),
});
export type RoleRow = z.infer<typeof roleRow>;
export const roleBody = z.strictObject({
  name: z.string().trim().max(64),
  remarks: z.string().trim().max(200).default(''),
  /** Customer-service role: on cs_ screens its admins see their superior's branch. */
  serves_superior_branch: z.boolean().optional(),
});
export const rolePermissionsBody = z.strictObject({ keys: z.array(z.string().max(100)).max(2000) });
export const rolePermissionsAnswer = z.object({ keys: z.array(z.string()), tree: z.array(menuNode) });
export type RolePermissionsAnswer = z.infer<typeof rolePermissionsAnswer>;

// Named in the API document (components.schemas): answers several operations give, referred to by `$ref`.
component(userInfo, 'UserInfo');
component(adminRow, 'AdminRow');
component(roleRow, 'RoleRow');
