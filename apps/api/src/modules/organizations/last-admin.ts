import { asc, eq } from 'drizzle-orm';
import type { MemberRole } from '@flotte/contract';
import { organizations, organizationUsers } from '../../db/schema/organizations.js';
import type { ReadTx } from '../../db/scope.js';

// Who administers what, as the account page needs it (decision 036): the role is the link's
// (organization_users.role, decision 034). The last-ADMIN rule itself is the members' one.
export { organizationsWhereLastAdmin } from './organizations.service.js';

/** The user's organizations with their role in each (title order). */
export async function membershipsOf(tx: ReadTx, userUuid: string): Promise<{ uuid: string; title: string; linkUuid: string; role: MemberRole }[]> {
  return tx
    .select({ uuid: organizations.uuid, title: organizations.title, linkUuid: organizationUsers.uuid, role: organizationUsers.role })
    .from(organizationUsers)
    .innerJoin(organizations, eq(organizations.uuid, organizationUsers.organizationUuid))
    .where(eq(organizationUsers.userUuid, userUuid))
    .orderBy(asc(organizations.title));
}
