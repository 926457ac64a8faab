/** Java-style number text; the implementation lives with show() rendering. */
export { javaDoubleToString as formatDouble } from "./show.js";
