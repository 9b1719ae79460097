/* Built by interpose.exp into a shared object that guest-unload-main.c
   loads, runs its interpreter through, and unloads: a C library
   between two activations of a VM's entry function.  */

volatile int guest_unload_calls;

void
guest_unload_run (void (*fn) (int), int arg)
{
  fn (arg);
  guest_unload_calls++;         /* no tail call: this frame stays */
}
