import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { withTenant, type WriteTx } from '../db/scope.js';
import { evaluateOrganization } from '../modules/alerts/alert-rules.js';

/**
 * The demo's prevention alerts (issue 16, decision 037): one alert the broker wrote two days ago
 * for all its clients, and the automatic alerts the demo data raises (limits, drivers, claims…),
 * as the daily run would have found them.
 */
export async function seedWrittenAlert(tx: WriteTx, environmentUuid: string, authorUuid: string, organizationUuids: readonly string[]) {
  const publishAt = new Date(Date.now() - 2 * 86_400_000).toISOString();
  const title = 'Hiver : préparez vos véhicules';
  const body = [
    'Les premières gelées arrivent. Avant le **1er décembre** :',
    '',
    '- faites contrôler la pression et l’usure des pneus (pneus hiver en zone montagne) ;',
    '- vérifiez les balais d’essuie-glace et le liquide lave-glace antigel ;',
    '- rappelez à vos conducteurs d’adapter leurs distances de sécurité.',
    '',
    'Besoin d’un atelier de sensibilisation ? Prenez rendez-vous avec votre chargée de clientèle.',
  ].join('\n');
  const [alert] = (
    (await tx.execute(
      sql`insert into prevention_alerts (environment_uuid, author_uuid, title, body, severity, target_kind, publish_at)
          values (${environmentUuid}, ${authorUuid}, ${title}, ${body}, 'attention', 'all', ${publishAt}) returning uuid`,
    )) as unknown as { rows: { uuid: string }[] }
  ).rows;
  for (const organizationUuid of organizationUuids) {
    await tx.execute(
      sql`insert into organization_alerts (organization_uuid, source, prevention_alert_uuid, severity, title, body, published_at)
          values (${organizationUuid}, 'written', ${alert!.uuid}, 'attention', ${title}, ${body}, ${publishAt})`,
    );
  }
}

/** The automatic alerts of each demo organization, evaluated once (the brokers' digest tells them the next morning). */
export async function seedAutomaticAlerts(db: Database, organizationUuids: readonly string[]) {
  for (const organizationUuid of organizationUuids) await withTenant(db, organizationUuid, (tx) => evaluateOrganization(tx, organizationUuid));
}
