/** The list envelope every paginated endpoint answers with. */
export function toPage<T>(data: T[], total: number, page: number, limit: number) {
  return { data, page, nbOfPages: Math.max(1, Math.ceil(total / limit)), total };
}

export const offsetOf = (page: number, limit: number) => (page - 1) * limit;
