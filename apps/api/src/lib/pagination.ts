/** The list envelope every paginated endpoint answers with. */
/** totalIsCapped: the total stopped at COUNT_CAP (registerPage); the envelope then says so. */
export function toPage<T>(data: T[], total: number, page: number, limit: number, totalIsCapped = false) {
  return { data, page, nbOfPages: Math.max(1, Math.ceil(total / limit)), total, ...(totalIsCapped ? { totalIsCapped: true } : {}) };
}

export const offsetOf = (page: number, limit: number) => (page - 1) * limit;
