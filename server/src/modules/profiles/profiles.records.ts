/**
 * The rows of a user or group list, as every module that answers one (blocks, search, profiles)
 * reads them before profiles.mapper turns them into list items.
 */

export interface UserListRow {
  id: string;
  username: string;
  pfp_version: number;
}

export interface GroupListRow {
  id: string;
  name: string;
  gp_version: number;
}
