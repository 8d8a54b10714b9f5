/** Dialog widths of spec platform §9, business constants ('Confirm dialog width 416. Default dialog width 300.'). */

/** Width of the 'warm tip' confirm, pixels. */
export const CONFIRM_WIDTH = 416;

/** Width of a plain dialog (a short message, one field), pixels; forms keep their own. */
export const DIALOG_WIDTH = 300;
