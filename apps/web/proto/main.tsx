import { createRoot } from 'react-dom/client';
import { z } from 'zod/mini';
const s = z.object({a: z.string().check(z.maxLength(3)), b: z.nullable(z.number()), c: z.array(z.object({d: z.enum(['x','y'])}))});
createRoot(document.getElementById('root')!).render(<b>{JSON.stringify(s.safeParse({}))}</b>);
