/** Lock paths and names of the packages `npm ci --omit=dev` installs for the package at `root`. */
export function productionPackages(root: string): Array<{ path: string; name: string }>;
