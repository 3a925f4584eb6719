// Entry of the action (bundled as dist/index.js).
import { run } from './action/main.js'

void run()
