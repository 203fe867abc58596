#define FROM_ANGLE 2
