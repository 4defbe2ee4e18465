#include "testutil.h"
int main(int argc, char **argv) { (void)argc; tu_init(argv[0]); return tu_finish(); }
