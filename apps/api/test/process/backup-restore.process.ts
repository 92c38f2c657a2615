import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, backupFileFrom, cleanUp, column, createDriver, login, openFolder, runCommand, scratch, seededDataDir, startServer, startWriters, waitUntil } from './harness.js';

afterAll(cleanUp);

const N = '[\\d\\u202f]+';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
const COUNTS = new RegExp(`${N} organisations?, ${N} conducteurs?, ${N} véhicules?, ${N} sinistres?`);

describe('backups and restore of the embedded database', () => {
  it('backup (server running) → more writes → restore: exactly the backup’s rows come back, the replaced folder is kept', async () => {
    const dataDir = seededDataDir();
    const server = await startServer(dataDir);
    const kept: string[] = [];
    let documentUuid: string;
    let backupFile: string;
    let backupCounts: string;
    try {
      const token = await login(server.url);
      for (let i = 0; i < 5; i++) kept.push(await createDriver(server.url, token, `Sauve-avant-${i}`));
      const form = new FormData();
      form.append('files', new Blob([PDF]), 'constat.pdf');
      const upload = await fetch(`${server.url}/api/document/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      expect(upload.status, await upload.clone().text()).toBe(201);
      documentUuid = ((await upload.json()) as { data: { uuid: string }[] }).data[0]!.uuid;
      const backup = await runCommand('backup', [], { DATA_DIR: dataDir });
      backupFile = backupFileFrom(backup);
      expect(path.dirname(backupFile)).toBe(path.join(dataDir, 'backups'));
      expect(path.basename(backupFile)).toMatch(/^flotte-\d{4}-\d\d-\d\d_\d\d-\d\d-\d\dZ-manuelle\.tar$/);
      expect(backup.stdout).toMatch(/\([\d\u202f]+(,\d)?\u00a0(octets?|Ko|Mo)\)/);
      // The uploaded document's file is in it, and the command says so.
      expect(backup.stdout).toMatch(/Fichiers déposés : 1 fichier \([\d,]+\u00a0(octets?|Ko)\), copiés de DATA_DIR\/media\./);
      expect(statSync(backupFile).size).toBeGreaterThan(10_000);
      backupCounts = COUNTS.exec(backup.stdout)![0];
      for (let i = 0; i < 5; i++) await createDriver(server.url, token, `Sauve-apres-${i}`);
    } finally {
      expect(await server.stop()).toBe(0);
    }

    // With no server, the command opens the folder itself.
    const cold = await runCommand('backup', [], { DATA_DIR: dataDir });
    backupFileFrom(cold);
    expect(cold.stdout).toContain('aucun serveur ne tournait');

    const restore = await runCommand('restore', [backupFile], { DATA_DIR: dataDir });
    expect(restore.code, restore.output).toBe(0);
    expect(restore.stdout).toMatch(/Prise le \d\d\/\d\d\/\d{4} .* \(manuelle\)/);
    expect(COUNTS.exec(restore.stdout)![0]).toBe(backupCounts);
    const previous = /Ancienne base mise de côté \(pas supprimée\) : (\S+)/.exec(restore.stdout)![1]!;
    expect(existsSync(path.join(previous, 'PG_VERSION'))).toBe(true);
    expect(restore.stdout).toMatch(new RegExp(`Fichiers déposés restaurés : 1 fichier \\([\\d,]+\u00a0(octets?|Ko)\\) dans ${path.join(dataDir, 'media')}`));
    const previousMedia = /Anciens fichiers déposés mis de côté \(pas supprimés\) : (\S+)/.exec(restore.stdout)![1]!;
    expect(path.basename(previousMedia)).toMatch(/^media\.avant-restauration-/);

    const db = await openFolder(dataDir);
    try {
      expect(await column(db, `SELECT uuid FROM drivers WHERE last_name LIKE 'Sauve-%'`)).toEqual(new Set(kept));
      const [key] = await column(db, `SELECT file_key FROM documents WHERE uuid = $1`, [documentUuid]);
      expect(readFileSync(path.join(dataDir, 'media', ...String(key).split('/'))).equals(PDF)).toBe(true);
    } finally {
      await db.close();
    }
  });

  it('a backup taken while 8 writers run restores to a database that opens and is consistent', async () => {
    const dataDir = seededDataDir();
    const server = await startServer(dataDir);
    let backupFile: string;
    let vehiclesWritten: number;
    try {
      const token = await login(server.url);
      const writers = startWriters(8, async (writer, n) => {
        const vehicle = await api<{ uuid: string }>(server.url, token, 'POST', '/vehicule', {
          brand: 'Pendant',
          model: 'Sauvegarde',
          type: 'VUL',
          immatriculation: `PS${writer}X${n}`,
        });
        if (vehicle.status !== 201) throw new Error(`véhicule refusé : ${vehicle.status}`);
        const claim = await api<{ uuid: string }>(server.url, token, 'POST', '/sinister', { sinisterDate: '2026-01-15', vehicule: vehicle.body.uuid });
        if (claim.status !== 201) throw new Error(`sinistre refusé : ${claim.status}`);
        return [vehicle.body.uuid];
      });
      await waitUntil(() => writers.acknowledged.length >= 16);
      backupFile = backupFileFrom(await runCommand('backup', [], { DATA_DIR: dataDir }));
      const atBackup = writers.acknowledged.length;
      await waitUntil(() => writers.acknowledged.length >= atBackup + 16);
      await writers.stop();
      vehiclesWritten = writers.acknowledged.length;
    } finally {
      await server.stop();
    }

    const target = scratch();
    const restore = await runCommand('restore', [backupFile], { DATA_DIR: target });
    expect(restore.code, restore.output).toBe(0);
    const db = await openFolder(target);
    try {
      const orphans = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM sinisters s WHERE s.vehicule_uuid IS NOT NULL AND NOT EXISTS (SELECT 1 FROM vehicules v WHERE v.uuid = s.vehicule_uuid)`,
      );
      expect(orphans.rows[0]!.n).toBe(0);
      // The counts kept by triggers match the rows: the copy holds whole transactions only.
      const drift = await db.query(
        `WITH actual AS (
           SELECT organization_uuid, 'drivers' AS register, count(*) FILTER (WHERE archived_at IS NULL) AS active, count(*) FILTER (WHERE archived_at IS NOT NULL) AS archived FROM drivers GROUP BY 1
           UNION ALL SELECT organization_uuid, 'vehicules', count(*) FILTER (WHERE archived_at IS NULL), count(*) FILTER (WHERE archived_at IS NOT NULL) FROM vehicules WHERE immatriculation IS NOT NULL GROUP BY 1
           UNION ALL SELECT organization_uuid, 'sinisters', count(*) FILTER (WHERE archived_at IS NULL), count(*) FILTER (WHERE archived_at IS NOT NULL) FROM sinisters GROUP BY 1)
         SELECT a.*, c.active AS kept_active, c.archived AS kept_archived FROM actual a
         LEFT JOIN register_counts c USING (organization_uuid, register)
         WHERE c.active IS DISTINCT FROM a.active OR c.archived IS DISTINCT FROM a.archived`,
      );
      expect(drift.rows).toEqual([]);
      const during = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM vehicules WHERE brand = 'Pendant'`);
      // Taken in the middle: some of the writers' vehicles, not all.
      expect(during.rows[0]!.n).toBeGreaterThan(0);
      expect(during.rows[0]!.n).toBeLessThan(vehiclesWritten);
    } finally {
      await db.close();
    }
  });

});
