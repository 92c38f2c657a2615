import { randomBytes } from 'node:crypto';
import {
  type AcceptInvitationBody,
  CGU_VERSION,
  type CreateInvitationBody,
  type Invitation,
  INVITATION_LINK_DAYS,
  INVITATION_LINK_INVALID_MESSAGE,
  INVITATION_OTHER_EMAIL_MESSAGE,
  type InvitationPreview,
  type PaginatedSearchQuery,
  type User,
} from '@flotte/contract';
import { and, asc, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { organizationInvitations, organizations, organizationUsers } from '../../db/schema/organizations.js';
import { users } from '../../db/schema/users.js';
import { readSystem, readTenant, withSystem, withTenant, type ReadTx, type WriteTx } from '../../db/scope.js';
import { containsFolded } from '../../db/search.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../errors.js';
import { type AuthContext, isAdmin, requireOrganization } from '../../lib/auth-context.js';
import { offsetOf, toPage } from '../../lib/pagination.js';
import { hashPassword } from '../../lib/passwords.js';
import { hashRefreshToken, sameHash } from '../../lib/tokens.js';
import type { MailService } from '../../platform/platform-jobs.js';
import * as usersService from '../users/users.service.js';
import { addMember, MEMBERS_ADMIN_ONLY_MESSAGE } from './organizations.service.js';

// Invitations by e-mail (decision 034). The administrators' calls work in the current
// organization's tenant scope: row-level security hides every other organization's invitations
// (their ids answer 404 like unknown ones). The link's side works in system scope: its token is
// the only key, before any organization is known.

const DAY_MS = 86_400_000;
export const INVITATION_NOT_FOUND_MESSAGE = 'Invitation introuvable';
export const ALREADY_MEMBER_MESSAGE = "Cette personne est déjà membre de l'organisation";
export const ACCOUNT_EXISTS_MESSAGE = "Un compte existe déjà pour cette adresse e-mail : connectez-vous pour accepter l'invitation.";

const invalidLink = () => new BadRequestError(INVITATION_LINK_INVALID_MESSAGE, [{ path: 'token', message: INVITATION_LINK_INVALID_MESSAGE }]);

export type InvitationsOptions = { mail: () => MailService; now?: () => number };

/** The current organization, when the caller administers it; else 403 (a plain member) or 403 (no organization). */
function administeredOrganization(ctx: AuthContext): string {
  const organizationUuid = requireOrganization(ctx);
  if (!isAdmin(ctx)) throw new ForbiddenError(MEMBERS_ADMIN_ONLY_MESSAGE);
  return organizationUuid;
}

const invitationColumns = {
  uuid: organizationInvitations.uuid,
  email: organizationInvitations.email,
  role: organizationInvitations.role,
  createdAt: organizationInvitations.createdAt,
  expiresAt: organizationInvitations.expiresAt,
  inviterFirstName: users.firstName,
  inviterLastName: users.lastName,
};
type InvitationRow = { uuid: string; email: string; role: 'ADMIN' | 'USER'; createdAt: Date; expiresAt: Date; inviterFirstName: string | null; inviterLastName: string | null };

function toInvitation(row: InvitationRow): Invitation {
  return {
    uuid: row.uuid,
    email: row.email,
    role: row.role,
    invitedBy: row.inviterFirstName !== null && row.inviterLastName !== null ? { firstName: row.inviterFirstName, lastName: row.inviterLastName } : null,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

async function findPending(tx: ReadTx, uuid: string): Promise<InvitationRow | null> {
  const [row] = await tx
    .select(invitationColumns)
    .from(organizationInvitations)
    .leftJoin(users, eq(users.uuid, organizationInvitations.invitedByUuid))
    .where(and(eq(organizationInvitations.uuid, uuid), isNull(organizationInvitations.acceptedAt)))
    .limit(1);
  return row ?? null;
}

export function createInvitationsService(db: Database, options: InvitationsOptions) {
  const now = options.now ?? (() => Date.now());

  /** A new token for the invitation's link, its hash and end of validity. */
  function newLink() {
    const token = randomBytes(32).toString('base64url');
    return { token, tokenHash: hashRefreshToken(token), expiresAt: new Date(now() + INVITATION_LINK_DAYS * DAY_MS) };
  }

  /** Queues the invitation's e-mail in the transaction (sent after the commit, by the outbox). */
  async function sendLink(tx: WriteTx, inviterUuid: string, organizationUuid: string, email: string, token: string, baseUrl: string) {
    const [inviter] = await tx.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.uuid, inviterUuid)).limit(1);
    const [organization] = await tx.select({ title: organizations.title }).from(organizations).where(eq(organizations.uuid, organizationUuid)).limit(1);
    await options.mail().queue(tx, {
      template: 'organization-invitation',
      organizationUuid,
      to: email,
      data: {
        inviterName: inviter ? `${inviter.firstName} ${inviter.lastName}` : 'Un administrateur',
        organizationTitle: organization?.title ?? 'votre organisation',
        token,
        expiresInDays: INVITATION_LINK_DAYS,
      },
      baseUrl,
    });
  }

  /** The live invitation of a token: pending, not expired, its hash compared in constant time. */
  async function liveInvitation(tx: ReadTx, token: string) {
    const hash = hashRefreshToken(token);
    const [row] = await tx
      .select({
        uuid: organizationInvitations.uuid,
        organizationUuid: organizationInvitations.organizationUuid,
        organizationTitle: organizations.title,
        email: organizationInvitations.email,
        role: organizationInvitations.role,
        tokenHash: organizationInvitations.tokenHash,
        expiresAt: organizationInvitations.expiresAt,
        inviterFirstName: users.firstName,
        inviterLastName: users.lastName,
      })
      .from(organizationInvitations)
      .innerJoin(organizations, eq(organizations.uuid, organizationInvitations.organizationUuid))
      .leftJoin(users, eq(users.uuid, organizationInvitations.invitedByUuid))
      .where(and(eq(organizationInvitations.tokenHash, hash), isNull(organizationInvitations.acceptedAt), gt(organizationInvitations.expiresAt, new Date(now()))))
      .limit(1);
    return row && sameHash(row.tokenHash, hash) ? row : null;
  }

  /** Spends the invitation once: of two racing uses, one wins (the other is told the link is invalid). */
  async function claim(tx: WriteTx, uuid: string): Promise<boolean> {
    const claimed = await tx
      .update(organizationInvitations)
      .set({ acceptedAt: new Date(now()) })
      .where(and(eq(organizationInvitations.uuid, uuid), isNull(organizationInvitations.acceptedAt), gt(organizationInvitations.expiresAt, new Date(now()))))
      .returning({ uuid: organizationInvitations.uuid });
    return claimed.length === 1;
  }

  /** Links the user (unless already a member) and makes the organization its current one. */
  async function join(tx: WriteTx, organizationUuid: string, userUuid: string, role: 'ADMIN' | 'USER') {
    await addMember(tx, organizationUuid, userUuid, role);
    const [link] = await tx
      .select({ uuid: organizationUsers.uuid })
      .from(organizationUsers)
      .where(and(eq(organizationUsers.organizationUuid, organizationUuid), eq(organizationUsers.userUuid, userUuid)))
      .limit(1);
    await tx.update(users).set({ currentOrganizationUserUuid: link!.uuid, updatedAt: new Date(now()) }).where(eq(users.uuid, userUuid));
  }

  return {
    /**
     * Invites an address into an organization the caller has just made, in the caller's own
     * transaction (the broker's « Créer une organisation », decision 042): the organization is
     * new, so nobody is a member yet and no invitation is pending. The e-mail is queued in the
     * same transaction: both or neither.
     */
    async inviteIntoNew(tx: WriteTx, ctx: AuthContext, organizationUuid: string, invited: { email: string; role: 'ADMIN' | 'USER' }, baseUrl: string): Promise<void> {
      const link = newLink();
      await tx.insert(organizationInvitations).values({
        organizationUuid,
        email: invited.email,
        role: invited.role,
        tokenHash: link.tokenHash,
        invitedByUuid: ctx.userUuid,
        expiresAt: link.expiresAt,
        createdAt: new Date(now()),
      });
      await sendLink(tx, ctx.userUuid, organizationUuid, invited.email, link.token, baseUrl);
    },

    /** The current organization's pending invitations (expired ones too, to be resent), newest first. */
    async list(ctx: AuthContext, query: PaginatedSearchQuery) {
      const organizationUuid = administeredOrganization(ctx);
      const where = and(isNull(organizationInvitations.acceptedAt), query.search ? containsFolded(organizationInvitations.email, query.search) : undefined);
      const { rows, total } = await readTenant(db, organizationUuid, async (tx) => {
        const [page, [totalRow]] = await Promise.all([
          tx
            .select(invitationColumns)
            .from(organizationInvitations)
            .leftJoin(users, eq(users.uuid, organizationInvitations.invitedByUuid))
            .where(where)
            .orderBy(desc(organizationInvitations.createdAt), asc(organizationInvitations.uuid))
            .limit(query.limit)
            .offset(offsetOf(query.page, query.limit)),
          tx.select({ total: count() }).from(organizationInvitations).where(where),
        ]);
        return { rows: page, total: totalRow?.total ?? 0 };
      });
      return toPage(rows.map(toInvitation), total, query.page, query.limit);
    },

    /**
     * Invites an address into the current organization and e-mails it the link. A current member
     * is refused (409); a pending invitation of the same address is replaced (its link stops
     * working, the new role counts).
     */
    async create(ctx: AuthContext, body: CreateInvitationBody, baseUrl: string): Promise<Invitation> {
      const organizationUuid = administeredOrganization(ctx);
      const uuid = await withTenant(db, organizationUuid, async (tx) => {
        const [member] = await tx
          .select({ uuid: organizationUsers.uuid })
          .from(organizationUsers)
          .innerJoin(users, eq(users.uuid, organizationUsers.userUuid))
          .where(sql`lower(${users.email}) = ${body.email}`)
          .limit(1);
        if (member) throw new ConflictError(ALREADY_MEMBER_MESSAGE, [{ path: 'email', message: ALREADY_MEMBER_MESSAGE }]);
        // The pending invitation of this address, if any, is replaced in place (one statement: two
        // racing invitations of one address end as one, the partial unique index deciding).
        const link = newLink();
        const fields = { role: body.role, tokenHash: link.tokenHash, invitedByUuid: ctx.userUuid, expiresAt: link.expiresAt, createdAt: new Date(now()) };
        const [row] = await tx
          .insert(organizationInvitations)
          .values({ organizationUuid, email: body.email, ...fields })
          .onConflictDoUpdate({ target: [organizationInvitations.organizationUuid, organizationInvitations.email], targetWhere: sql`${organizationInvitations.acceptedAt} is null`, set: fields })
          .returning({ uuid: organizationInvitations.uuid });
        await sendLink(tx, ctx.userUuid, organizationUuid, body.email, link.token, baseUrl);
        return row!.uuid;
      });
      return toInvitation((await readTenant(db, organizationUuid, (tx) => findPending(tx, uuid)))!);
    },

    /** A new link (the old one stops working), valid 7 days from now, e-mailed again. */
    async resend(ctx: AuthContext, uuid: string, baseUrl: string): Promise<Invitation> {
      const organizationUuid = administeredOrganization(ctx);
      return withTenant(db, organizationUuid, async (tx) => {
        const row = await findPending(tx, uuid);
        if (!row) throw new NotFoundError(INVITATION_NOT_FOUND_MESSAGE);
        const link = newLink();
        await tx.update(organizationInvitations).set({ tokenHash: link.tokenHash, expiresAt: link.expiresAt, createdAt: new Date(now()), invitedByUuid: ctx.userUuid }).where(eq(organizationInvitations.uuid, uuid));
        await sendLink(tx, ctx.userUuid, organizationUuid, row.email, link.token, baseUrl);
        return toInvitation((await findPending(tx, uuid))!);
      });
    },

    /** Cancels a pending invitation: its link stops working. */
    async cancel(ctx: AuthContext, uuid: string): Promise<void> {
      const organizationUuid = administeredOrganization(ctx);
      await withTenant(db, organizationUuid, async (tx) => {
        const deleted = await tx
          .delete(organizationInvitations)
          .where(and(eq(organizationInvitations.uuid, uuid), isNull(organizationInvitations.acceptedAt)))
          .returning({ uuid: organizationInvitations.uuid });
        if (deleted.length === 0) throw new NotFoundError(INVITATION_NOT_FOUND_MESSAGE);
      });
    },

    /** What the link's page shows: the holder of the link proves the address, so whether it has an account is told. */
    async preview(token: string): Promise<InvitationPreview> {
      return readSystem(db, async (tx) => {
        const row = await liveInvitation(tx, token);
        if (!row) throw invalidLink();
        const [account] = await tx.select({ uuid: users.uuid }).from(users).where(sql`lower(${users.email}) = ${row.email}`).limit(1);
        return {
          organization: { title: row.organizationTitle },
          inviterName: row.inviterFirstName !== null && row.inviterLastName !== null ? `${row.inviterFirstName} ${row.inviterLastName}` : null,
          email: row.email,
          role: row.role,
          accountExists: Boolean(account),
          expiresAt: row.expiresAt.toISOString(),
        };
      });
    },

    /**
     * A new user accepts: the account is created with the invited address (the link proves it: no
     * confirmation e-mail), the terms in force accepted, linked with the invitation's role, in the
     * organization as its current one. Returns the new user's uuid; the route signs it in.
     */
    async acceptAsNewUser(body: AcceptInvitationBody): Promise<string> {
      const passwordHash = await hashPassword(body.password);
      return withSystem(db, async (tx) => {
        const row = await liveInvitation(tx, body.token);
        if (!row) throw invalidLink();
        // Claimed first: a second use of the link racing this one waits here for this one's end,
        // then finds the link used (400) — whatever its timing, never the account this one made
        // (409). An existing account then undoes the claim with the rest (the error rolls back).
        if (!(await claim(tx, row.uuid))) throw invalidLink();
        const [account] = await tx.select({ uuid: users.uuid }).from(users).where(sql`lower(${users.email}) = ${row.email}`).limit(1);
        if (account) throw new ConflictError(ACCOUNT_EXISTS_MESSAGE);
        const at = new Date(now());
        // A signup for the same address racing this one: the unique index keeps the other account.
        const [user] = await tx
          .insert(users)
          .values({ email: row.email, passwordHash, firstName: body.firstName, lastName: body.lastName, roles: ['USER'], cguAcceptedVersion: CGU_VERSION, cguAcceptedAt: at })
          .onConflictDoNothing()
          .returning({ uuid: users.uuid });
        if (!user) throw new ConflictError(ACCOUNT_EXISTS_MESSAGE);
        await join(tx, row.organizationUuid, user.uuid, row.role);
        return user.uuid;
      });
    },

    /**
     * The signed-in user accepts: its address must be the invited one (403 otherwise, nothing
     * written). Linked with the invitation's role (an existing member keeps its own), and the
     * organization becomes its current one.
     */
    async acceptAsMember(ctx: AuthContext, token: string): Promise<User> {
      await withSystem(db, async (tx) => {
        const row = await liveInvitation(tx, token);
        if (!row) throw invalidLink();
        const [me] = await tx.select({ email: users.email }).from(users).where(eq(users.uuid, ctx.userUuid)).limit(1);
        if (!me || me.email.toLowerCase() !== row.email) throw new ForbiddenError(INVITATION_OTHER_EMAIL_MESSAGE);
        if (!(await claim(tx, row.uuid))) throw invalidLink();
        await join(tx, row.organizationUuid, ctx.userUuid, row.role);
      });
      return usersService.getProfile(db, ctx.userUuid);
    },
  };
}

export type InvitationsService = ReturnType<typeof createInvitationsService>;
