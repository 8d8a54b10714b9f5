/**
 * The 24 gestures the gesture-recognition ability names (spec platform §2, "Other": a page listing
 * 24 gestures): the digits one to nine and fifteen hand signs, three of them two-handed hearts. The
 * keys are the labels a recogniser answers; the names are the page's.
 */
export interface Gesture {
  key: string;
  /** A symbol drawn on the card. */
  symbol: string;
}

export const GESTURES: readonly Gesture[] = [
  { key: 'One', symbol: '☝️' },
  { key: 'Two', symbol: '✌️' },
  { key: 'Three', symbol: '3' },
  { key: 'Four', symbol: '4' },
  { key: 'Five', symbol: '🖐️' },
  { key: 'Six', symbol: '🤙' },
  { key: 'Seven', symbol: '7' },
  { key: 'Eight', symbol: '8' },
  { key: 'Nine', symbol: '9' },
  { key: 'Ok', symbol: '👌' },
  { key: 'Fist', symbol: '✊' },
  { key: 'Prayer', symbol: '🙏' },
  { key: 'Congratulation', symbol: '🙇' },
  { key: 'Honour', symbol: '🫡' },
  { key: 'Heart_single', symbol: '🫰' },
  { key: 'Thumb_up', symbol: '👍' },
  { key: 'Thumb_down', symbol: '👎' },
  { key: 'ILY', symbol: '🤟' },
  { key: 'Palm_up', symbol: '🫴' },
  { key: 'Heart_1', symbol: '🫶' },
  { key: 'Heart_2', symbol: '❤️' },
  { key: 'Heart_3', symbol: '💞' },
  { key: 'Rock', symbol: '🤘' },
  { key: 'Point', symbol: '👉' },
];

/** The ability key of gesture recognition in the AI catalogue. */
export const GESTURE_RECOGNITION = 'gesture-recognition';
