-- One organization with 100 000 vehicles, 100 000 drivers and 1 000 000 claims ($1 = organization uuid).
-- Run as the database owner/superuser: row-level security is the application's, not the seed's.
INSERT INTO drivers (organization_uuid, first_name, last_name, email, phone, archived_at, created_at)
SELECT $1::uuid,
  (ARRAY['Julien','Nicolas','Thomas','Sébastien','Mathieu','Kévin','Romain','Nathalie','Sandrine','Céline','Émilie','Laurent','Stéphane','David','Christophe','Frédéric','Aurélie','Karim','Mehdi','Sophie','Isabelle','Grégory','Jérôme','Hélène','Amandine','Yannick','Cédric','Océane','Léa','Hugo'])[1 + g % 30],
  (ARRAY['Martin','Bernard','Dubois','Thomas','Robert','Richard','Petit','Durand','Leroy','Moreau','Simon','Laurent','Lefèbvre','Michel','Garcia','David','Bertrand','Roux','Vincent','Fournier','Morel','Girard','André','Lefèvre','Mercier','Dupont','Lambert','Bonnet','François','Martinez','Legrand','Garnier','Faure','Rousseau','Blanc','Guérin','Muller','Henry','Roussel','Nicolas','Perrin','Morin','Mathieu','Clément','Gauthier','Dumont','Lopez','Fontaine','Chevalier','Robin'])[1 + (g * 7) % 50] || '-' || (g % 997),
  'conducteur' || g || '@bench-flotte.fr',
  '+336' || lpad(g::text, 8, '0'),
  CASE WHEN g % 10 = 0 THEN now() - (g % 300) * interval '1 day' END,
  now() - (g % 1000) * interval '1 hour'
FROM generate_series(1, 100000) g;

INSERT INTO vehicules (organization_uuid, immatriculation, brand, model, type, circulation_date, entry_date, exit_date, archived_at, created_at)
SELECT $1::uuid,
  l[1 + (g / 999) % 23] || l[1 + (g / 22977) % 23] || lpad((1 + g % 999)::text, 3, '0') || l[1 + (g / 528471) % 23] || l[1 + (g / 7) % 23],
  (ARRAY['Renault','Peugeot','Citroën','Toyota','Dacia','Ford','Fiat','Mercedes-Benz','Volvo','Iveco','Scania','DAF'])[1 + g % 12],
  (ARRAY['Clio','208','C3','Yaris','Sandero','Transit','Ducato','Sprinter','FH','Eurocargo','R 450','XF','Kangoo','Trafic','Master'])[1 + (g * 3) % 15],
  (ARRAY['VP','VUL','PL','TRACTEUR','SEMI_REMORQUE','AUTRE'])[1 + g % 6],
  date '2016-01-01' + (g % 2500),
  date '2019-01-01' + (g % 2400),
  CASE WHEN g % 10 = 0 THEN date '2025-06-01' + (g % 300) END,
  CASE WHEN g % 20 = 0 THEN now() END,
  now() - (g % 1000) * interval '1 hour'
FROM generate_series(1, 100000) g,
  (SELECT ARRAY['A','B','C','D','E','F','G','H','J','K','L','M','N','P','Q','R','S','T','V','W','X','Y','Z'] AS l) letters;

INSERT INTO sinisters (organization_uuid, vehicule_uuid, guarantee_uuid, sinister_intermediate_ref, sinister_date, city,
  ida, has_human_injury, damaged_vehicule, is_third_implicated, is_declared, responsibility_rate, immatriculation, reserve_cents, created_at)
SELECT $1::uuid, v.uuid, gu.guarantees[1 + g % 17], 'B' || lpad(g::text, 8, '0'), date '2023-01-01' + (g % 1400),
  (ARRAY['Lyon','Villeurbanne','Vénissieux','Saint-Étienne','Grenoble','Valence','Mâcon','Chambéry','Annecy','Dijon','Paris','Marseille','Toulouse','Nantes','Lille','Bordeaux'])[1 + g % 16],
  g % 5 = 0, g % 50 = 0, g % 3 <> 0, g % 2 = 0, g % 4 <> 0,
  (ARRAY[0,25,50,75,100,NULL]::smallint[])[1 + g % 6],
  v.immatriculation, (g::bigint * 7919) % 1500000, now() - (g % 1000) * interval '1 minute'
FROM generate_series(1, 1000000) g
JOIN (SELECT uuid, immatriculation, row_number() OVER (ORDER BY uuid) AS rn FROM vehicules WHERE organization_uuid = $1::uuid) v
  ON v.rn = 1 + (g::bigint * 7919) % 100000
CROSS JOIN (SELECT array_agg(uuid ORDER BY position) AS guarantees FROM guarantees) gu;

-- Five yearly insurance periods (the dashboard scenario), the last one containing the claims' end.
INSERT INTO indicators (organization_uuid, start_date, end_date, motors_count, cash_received_cents)
SELECT $1::uuid, make_date(y, 1, 1), make_date(y, 12, 31), 80000 + (y - 2022) * 4000, (80000 + (y - 2022) * 4000)::bigint * 120000
FROM generate_series(2022, 2026) y
WHERE NOT EXISTS (SELECT 1 FROM indicators WHERE organization_uuid = $1::uuid);
