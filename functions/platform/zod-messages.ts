/**
 * zod's English issue messages. Classic zod registers them on first use; `zod/mini`, which every
 * function imports to keep its bundle small, registers none ("Invalid input" for everything). The
 * error policies read these messages (`x is missing` comes from `… received undefined`, SIU and
 * instance-configuration errors quote them), so every module that turns issues into answers imports
 * this one first.
 */
import { config } from "zod/mini";
import { en } from "zod/locales";

config(en());
